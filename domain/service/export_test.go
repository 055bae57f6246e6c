package service

// SetBeforePublish makes f run between a move's answer from the store and
// its publication, its game's lock released, until restore is called.
func SetBeforePublish(f func(seq int64)) (restore func()) {
	beforePublish = f
	return func() { beforePublish = nil }
}
