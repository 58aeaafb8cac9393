// Synth-time validation of the generated constructs against the resource model. The
// generator adds one call per construct class (scripts/generate-bindings.js); the error
// that cdktf raises names the construct path, and nothing is written for the stack.
import { Annotations, DefaultTokenResolver, StringConcat, TerraformElement, TerraformStack, Tokenization } from "cdktf";
import { literalCredentials } from "./resources/literal-credentials";
import { dataSourceKind, resourceKind } from "./resources/registry";
import { formatPath, validateDeclaration } from "./resources/validate";

// The stack-scoped resolution turns references into "${...}" strings, built from cdktf's
// public token API (resolving the whole stack instead would be O(n) per construct).
const TOKEN_RESOLVER = new DefaultTokenResolver(new StringConcat());

// Terraform meta-arguments sit beside the attributes in the synthesized JSON.
const META_ARGUMENTS = new Set(["depends_on", "lifecycle", "provider", "count", "for_each", "connection", "provisioner", "//"]);

/** Constructs already warned about: a second synth of one app does not repeat its warnings. */
const WARNED = new WeakSet<object>();

/**
 * A credential written as a literal lands in git and in every synthesized copy: warned
 * about at synth (a cdktf warning annotation on the construct), naming the attribute and
 * never the value.
 */
function warnOfLiteralCredentials(element: TerraformElement, typeName: string, attrs: Parameters<typeof literalCredentials>[0], values: Record<string, unknown>): void {
  if (WARNED.has(element)) return;
  WARNED.add(element);
  for (const c of literalCredentials(attrs, values)) {
    Annotations.of(element).addWarning(
      `${typeName}: attribute "${c.path}" holds ${c.what}; it ends up in git and in the synthesized JSON. Pass it through a sensitive variable instead (new TerraformVariable(this, "...", { type: "string", sensitive: true })), with its value from TF_VAR_..., --var or --var-file.`,
    );
  }
}

interface ResolvedBlocks {
  resource?: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
}

/** Registers the model's validation of one construct. Internal: called by generated code. */
export function validateWithModel(element: TerraformElement & { terraformResourceType: string }, role: "resource" | "data"): void {
  element.node.addValidation({
    validate: (): string[] => {
      const typeName = element.terraformResourceType;
      const kind = role === "data" ? dataSourceKind(typeName) : resourceKind(typeName);
      if (!kind) return [];
      const resolved = Tokenization.resolve(element.toTerraform(), {
        scope: TerraformStack.of(element),
        preparing: false,
        resolver: TOKEN_RESOLVER,
      }) as ResolvedBlocks;
      const byName = resolved[role]?.[typeName] ?? {};
      const attributes = byName[element.friendlyUniqueId] ?? Object.values(byName)[0] ?? {};
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(attributes)) if (!META_ARGUMENTS.has(k)) values[k] = v;
      if (role === "resource") warnOfLiteralCredentials(element, typeName, kind.attributes, values);
      return validateDeclaration(kind, values).map(
        (issue) => `${typeName}: attribute "${formatPath(issue.path)}" ${issue.message}`,
      );
    },
  });
}
