// Entry of the `terraform-provider-ods` binary. The resource model loads only after the
// handshake line is out: Terraform starts the provider several times per command.
import "./cpu-profile";
import { serveProvider } from "./provider-server";

export function main(): Promise<void> {
  return serveProvider(async () => {
    const { OdsTerraformProvider } = await import("./ods-provider");
    return new OdsTerraformProvider();
  });
}
