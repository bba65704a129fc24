package config

// Console is the console section. Console configures the web console served at / by webgate serve.
type Console struct{}

func (x *Console) applyDefaults() {}

func (x *Console) validate() []error { return nil }
