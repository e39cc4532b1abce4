// Moved to dev/stack (the chaos run uses it too); kept here for the tests that import it.
export * from "../../dev/stack/child-processes";
