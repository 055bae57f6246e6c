package silvergold

import (
	"reflect"
	"testing"
)

// TestExpeditionsPlain: the shared expedition of every pattern is what the
// plain constructor makes, and asking twice gives the same one.
func TestExpeditionsPlain(t *testing.T) {
	for p := Pattern(0); p < NumPatterns; p++ {
		if got, want := expeditionOf(p), expedition(p); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: shared %+v, plain %+v", p.Code(), got, want)
		}
		if expeditionOf(p) != expeditionOf(p) {
			t.Errorf("%s: made twice", p.Code())
		}
	}
}

// BenchmarkExpedition compares the shared expedition with making one, as
// every move's status event did.
func BenchmarkExpedition(b *testing.B) {
	b.Run("shared", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = expeditionOf(Pattern(2))
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = expedition(Pattern(2))
		}
	})
}
