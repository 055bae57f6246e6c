package postgres

// MigrationNames lists the embedded migrations in the order they apply.
func MigrationNames() []string {
	names := make([]string, len(migrations))
	for i, m := range migrations {
		names[i] = m.name
	}
	return names
}

// LatestVersion is the schema version this build expects: the number of its
// last migration (versions may skip numbers other branches take).
func LatestVersion() int { return latestVersion() }
