// A field that names a user (a dashboard's `owner`, a starred query's `who`). Which ids a
// caller may write there depends on what it may read, so that the answer never tells a
// caller whether a user it cannot see exists: its own id always; any existing user's id
// with `users|read` (the capability that lists users); the id a record already holds,
// since the record shows it to whoever may change it. Everything else is refused with
// one message, whether or not the id exists.
import type { Caller } from "../auth";
import { hasOrgGrant } from "../capabilities";
import type { EmulatorCore } from "../core";
import { badRequest, type HttpError } from "../errors";

/** Ids compare without case: the service keeps them in lower case. */
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Whether `id` is a user the caller may name. `kept` is the value the record holds
 * already (a write that sends back what it read is never refused for it).
 */
export function mayNameUser(core: EmulatorCore, caller: Caller, id: string, kept?: string): boolean {
  if (same(id, caller.user.id) || (kept !== undefined && same(id, kept))) return true;
  if (!hasOrgGrant(caller.token, "users", "read")) return false;
  for (const userId of core.state.users.keys()) if (same(userId, id)) return true;
  return false;
}

/** The one refusal for a user id the caller may not name, existing or not. */
export function userReferenceRefusal(field: string, id: string, alternatives: string): HttpError {
  return badRequest(
    `${field} must be ${alternatives}, the calling user's id, or the id of a user this token may read (orgCapabilities.users|read), got ${JSON.stringify(id)}`,
  );
}
