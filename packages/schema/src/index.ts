// Filled in by its issue; kept so the workspace builds and typechecks end to end.
export {};
