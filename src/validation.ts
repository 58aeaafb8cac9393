// Synth-time validation of the generated constructs against the resource model. The
// generator adds one call per construct class (scripts/generate-bindings.js); the error
// that cdktf raises names the construct path, and nothing is written for the stack.
import { DefaultTokenResolver, StringConcat, TerraformElement, TerraformStack, Tokenization } from "cdktf";
import { dataSourceKind, resourceKind } from "./resources/registry";
import { formatPath, validateDeclaration } from "./resources/validate";

// The stack-scoped resolution turns references into "${...}" strings, built from cdktf's
// public token API (resolving the whole stack instead would be O(n) per construct).
const TOKEN_RESOLVER = new DefaultTokenResolver(new StringConcat());

// Terraform meta-arguments sit beside the attributes in the synthesized JSON.
const META_ARGUMENTS = new Set(["depends_on", "lifecycle", "provider", "count", "for_each", "connection", "provisioner", "//"]);

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
      return validateDeclaration(kind, values).map(
        (issue) => `${typeName}: attribute "${formatPath(issue.path)}" ${issue.message}`,
      );
    },
  });
}
