// The model's unknown marker, as the lifecycle and the engines see it.
export { UNKNOWN, containsUnknown, type Unknown } from "../resources/unknown";
