// Public entry of the package: the generated CDKTF constructs, as namespaces in the
// style of the prebuilt @cdktf/provider-* packages. Filled by the resource model issue.
export {};
