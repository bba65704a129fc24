package policy

// Policy is what one gateway API key may do. The zero Policy allows
// everything.
//
// TODO(issue 7): tools, surfaces, domain rules, rate limit and budget.
type Policy struct{}
