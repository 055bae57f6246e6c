package takeback_test

import (
	"testing"

	"github.com/treasury-games/treasury/api/webtest"
)

func TestMain(m *testing.M) { webtest.Main(m) }
