package postgres

// MigrationNames lists the embedded migrations in the order they apply.
func MigrationNames() []string { return schema.Names() }

// LatestVersion is the schema version this build expects: the number of its
// last migration (versions may skip numbers other branches take).
func LatestVersion() int { return latestVersion() }

// NoticeInterval is the least time between two notifying statements of a
// store.
const NoticeInterval = noticeInterval
