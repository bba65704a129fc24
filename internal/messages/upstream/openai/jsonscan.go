package openai

// objectScanner validates a JSON object fed to it in fragments, byte by
// byte, without buffering it: a streamed tool call's arguments are
// forwarded to the client as they arrive, and the scanner says when the
// object is complete (so the tool block can close) and the moment it stops
// being a prefix of valid JSON (so a malformed call is never handed to a
// client as if it were whole). It accepts exactly what encoding/json's
// Valid accepts for a top-level object, except that nesting deeper than
// maxScanDepth is refused.
type objectScanner struct {
	stack    []byte // open containers, '{' or '['
	step     scanStep
	lit      string // remaining bytes of true/false/null
	hex      int    // \u digits still expected
	started  bool   // the opening '{' was seen
	complete bool
	invalid  bool
}

// maxScanDepth bounds nesting, and so the stack's memory.
const maxScanDepth = 512

type scanStep uint8

const (
	stepBegin      scanStep = iota // before the top-level '{'
	stepObjKey                     // after '{': a key or '}'
	stepKey                        // after ',' in an object: a key
	stepColon                      // after a key
	stepValue                      // a value
	stepArrValue                   // after '[': a value or ']'
	stepAfterValue                 // ',' or the closing bracket
	stepString                     // inside a string
	stepKeyString                  // inside an object key
	stepEscape                     // after '\' in a string
	stepKeyEscape                  // after '\' in a key
	stepHex                        // \u digits in a string
	stepKeyHex                     // \u digits in a key
	stepLiteral                    // inside true, false or null
	stepNumMinus                   // after '-'
	stepNumZero                    // after a leading 0
	stepNumInt                     // in the integer digits
	stepNumDot                     // after '.'
	stepNumFrac                    // in the fraction digits
	stepNumE                       // after 'e'
	stepNumESign                   // after the exponent sign
	stepNumExp                     // in the exponent digits
	stepEnd                        // after the top-level '}'
)

// feed scans b. Once invalid, further input is ignored.
func (s *objectScanner) feed(b []byte) {
	for _, c := range b {
		if s.invalid {
			return
		}
		s.byte(c)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *objectScanner) fail() { s.invalid = true }

func (s *objectScanner) byte(c byte) {
	switch s.step {
	case stepBegin:
		switch {
		case isSpace(c):
		case c == '{':
			s.started = true
			s.push('{')
		default:
			s.fail()
		}
	case stepEnd:
		if !isSpace(c) {
			s.fail()
		}
	case stepObjKey, stepKey:
		switch {
		case isSpace(c):
		case c == '"':
			s.step = stepKeyString
		case c == '}' && s.step == stepObjKey:
			s.pop()
		default:
			s.fail()
		}
	case stepColon:
		switch {
		case isSpace(c):
		case c == ':':
			s.step = stepValue
		default:
			s.fail()
		}
	case stepValue, stepArrValue:
		if isSpace(c) {
			return
		}
		if c == ']' && s.step == stepArrValue {
			s.pop()
			return
		}
		s.value(c)
	case stepAfterValue:
		top := s.stack[len(s.stack)-1]
		switch {
		case isSpace(c):
		case c == ',' && top == '{':
			s.step = stepKey
		case c == ',' && top == '[':
			s.step = stepValue
		case c == '}' && top == '{', c == ']' && top == '[':
			s.pop()
		default:
			s.fail()
		}
	case stepString, stepKeyString:
		switch {
		case c == '"':
			if s.step == stepKeyString {
				s.step = stepColon
			} else {
				s.step = stepAfterValue
			}
		case c == '\\':
			s.step += stepEscape - stepString
		case c < 0x20:
			s.fail()
		}
	case stepEscape, stepKeyEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.step -= stepEscape - stepString
		case 'u':
			s.step += stepHex - stepEscape
			s.hex = 4
		default:
			s.fail()
		}
	case stepHex, stepKeyHex:
		if !isHex(c) {
			s.fail()
			return
		}
		if s.hex--; s.hex == 0 {
			s.step -= stepHex - stepString
		}
	case stepLiteral:
		if c != s.lit[0] {
			s.fail()
			return
		}
		if s.lit = s.lit[1:]; s.lit == "" {
			s.step = stepAfterValue
		}
	default:
		s.number(c)
	}
}

// value starts a value with its first byte c (not a space).
func (s *objectScanner) value(c byte) {
	switch {
	case c == '{':
		s.push('{')
	case c == '[':
		s.push('[')
	case c == '"':
		s.step = stepString
	case c == 't':
		s.step, s.lit = stepLiteral, "rue"
	case c == 'f':
		s.step, s.lit = stepLiteral, "alse"
	case c == 'n':
		s.step, s.lit = stepLiteral, "ull"
	case c == '-':
		s.step = stepNumMinus
	case c == '0':
		s.step = stepNumZero
	case c >= '1' && c <= '9':
		s.step = stepNumInt
	default:
		s.fail()
	}
}

// number continues a number with c; a byte that cannot continue it ends
// the number, if it may end there, and is scanned as what follows.
func (s *objectScanner) number(c byte) {
	digit := c >= '0' && c <= '9'
	switch s.step {
	case stepNumMinus:
		switch {
		case c == '0':
			s.step = stepNumZero
		case digit:
			s.step = stepNumInt
		default:
			s.fail()
		}
		return
	case stepNumZero, stepNumInt:
		switch {
		case digit && s.step == stepNumInt:
			return
		case c == '.':
			s.step = stepNumDot
			return
		case c == 'e' || c == 'E':
			s.step = stepNumE
			return
		}
	case stepNumDot:
		if !digit {
			s.fail()
			return
		}
		s.step = stepNumFrac
		return
	case stepNumFrac:
		switch {
		case digit:
			return
		case c == 'e' || c == 'E':
			s.step = stepNumE
			return
		}
	case stepNumE:
		switch {
		case c == '+' || c == '-':
			s.step = stepNumESign
		case digit:
			s.step = stepNumExp
		default:
			s.fail()
		}
		return
	case stepNumESign:
		if !digit {
			s.fail()
			return
		}
		s.step = stepNumExp
		return
	case stepNumExp:
		if digit {
			return
		}
	}
	// The number ended (it is never the top-level value).
	s.step = stepAfterValue
	s.byte(c)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (s *objectScanner) push(c byte) {
	if len(s.stack) >= maxScanDepth {
		s.fail()
		return
	}
	s.stack = append(s.stack, c)
	if c == '{' {
		s.step = stepObjKey
	} else {
		s.step = stepArrValue
	}
}

func (s *objectScanner) pop() {
	s.stack = s.stack[:len(s.stack)-1]
	if len(s.stack) == 0 {
		s.step = stepEnd
		s.complete = true
		return
	}
	s.step = stepAfterValue
}
