// Owned by the migration work (issue 4): migrateConfig and the JSON import.
export {};
