package i18n

import (
	"strconv"
	"strings"
)

// A listing labels each of its entries and choices with a message, tens of
// them after every move for every seat whose listing changed; building each
// as a Message (a map of parameters, boxed values) and rendering it to a
// string made a third of Silver & Gold's listing time (issue 27). Compact
// holds the same message without a map, and AppendRender writes it straight
// into the caller's buffer. Compact.Message is the plain form; the two must
// render and encode alike (TestCompactPlain).

// MaxArgs is how many parameters a Compact holds.
const MaxArgs = 4

// ArgKind says which field of an Arg holds its value.
type ArgKind uint8

// The kinds of a Compact's parameters, as Message's: a string, an integer,
// a term (a message without parameters, by key) or a list of messages.
const (
	ArgString ArgKind = iota
	ArgInt
	ArgTerm
	ArgList
)

// Arg is one parameter of a Compact.
type Arg struct {
	Name string
	Kind ArgKind
	Str  string    // ArgString: the value; ArgTerm: the term's key
	Int  int       // ArgInt
	List []Compact // ArgList
}

// StrArg is a string parameter.
func StrArg(name, v string) Arg { return Arg{Name: name, Kind: ArgString, Str: v} }

// IntArg is an integer parameter.
func IntArg(name string, v int) Arg { return Arg{Name: name, Kind: ArgInt, Int: v} }

// TermArg is a parameter naming a term: the message key, without parameters.
func TermArg(name, key string) Arg { return Arg{Name: name, Kind: ArgTerm, Str: key} }

// ListArg is a parameter listing messages ("a, b and c").
func ListArg(name string, items []Compact) Arg { return Arg{Name: name, Kind: ArgList, List: items} }

// Compact is a message with at most MaxArgs parameters, held without a map.
type Compact struct {
	Key  string
	Args [MaxArgs]Arg
	N    int // parameters in Args
}

// C returns the message key with parameters args (at most MaxArgs, with
// distinct names; more is a programming error and panics).
func C(key string, args ...Arg) Compact {
	if len(args) > MaxArgs {
		panic("i18n: too many parameters for a compact message " + key)
	}
	c := Compact{Key: key, N: len(args)}
	copy(c.Args[:], args)
	return c
}

// Message returns c as a Message.
func (c *Compact) Message() Message {
	m := Message{Key: c.Key}
	if c.N == 0 {
		return m
	}
	m.Params = make(map[string]any, c.N)
	for _, a := range c.Args[:c.N] {
		switch a.Kind {
		case ArgString:
			m.Params[a.Name] = a.Str
		case ArgInt:
			m.Params[a.Name] = a.Int
		case ArgTerm:
			m.Params[a.Name] = Message{Key: a.Str}
		case ArgList:
			var items []Message // nil when the list is, as json.Marshal tells
			if a.List != nil {
				items = make([]Message, len(a.List))
			}
			for i := range a.List {
				items[i] = a.List[i].Message()
			}
			m.Params[a.Name] = items
		}
	}
	return m
}

// AppendRender appends c rendered in lang, as Render(lang, c.Message())
// returns it.
func AppendRender(b []byte, lang Lang, c *Compact) []byte {
	return appendRender(b, lang, c.Key, c.Args[:c.N])
}

func appendRender(b []byte, lang Lang, key string, args []Arg) []byte {
	if key == "" {
		return b
	}
	c := get()
	t, ok := c.by[lang][key]
	if !ok {
		lang = English
		if t, ok = c.by[English][key]; !ok {
			return append(b, key...)
		}
	}
	s := t.one
	if t.forms != nil {
		f := "other"
		for _, a := range args {
			if a.Name == "count" && a.Kind == ArgInt {
				f = formOf(lang, a.Int)
			}
		}
		if s = t.forms[f]; s == "" {
			s = t.forms["other"]
		}
	}
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return append(b, s...)
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return append(b, s...)
		}
		name := s[i+1 : i+j]
		b = append(b, s[:i]...)
		if a := argNamed(args, name); a != nil {
			b = appendArg(b, lang, a)
		} else {
			b = append(b, s[i:i+j+1]...)
		}
		s = s[i+j+1:]
	}
}

func argNamed(args []Arg, name string) *Arg {
	for i := range args {
		if args[i].Name == name {
			return &args[i]
		}
	}
	return nil
}

// appendArg appends a parameter's value as value renders it.
func appendArg(b []byte, lang Lang, a *Arg) []byte {
	switch a.Kind {
	case ArgString:
		return append(b, a.Str...)
	case ArgInt:
		return strconv.AppendInt(b, int64(a.Int), 10)
	case ArgTerm:
		return appendRender(b, lang, a.Str, nil)
	}
	// A list, joined as List joins it.
	for i := range a.List {
		switch {
		case i == 0:
		case i == len(a.List)-1:
			b = append(b, ' ')
			b = appendRender(b, lang, "list.and", nil)
			b = append(b, ' ')
		default:
			b = append(b, ", "...)
		}
		b = AppendRender(b, lang, &a.List[i])
	}
	return b
}
