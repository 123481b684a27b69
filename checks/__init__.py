"""Cross-checks of the reference executor against the Z3 model, and the conformance harness."""
