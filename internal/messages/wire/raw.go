package wire

// Raw writes one event whose data is already-encoded JSON, for callers
// that relay or assemble events themselves (the server tool emulation
// forwards upstream blocks it does not need to understand).
func (e *EventWriter) Raw(name string, data []byte) error {
	if e.err != nil {
		return e.err
	}
	return e.end(name, append(e.begin(name), data...))
}
