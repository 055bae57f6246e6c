package domain

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// JoinCodeAlphabet is what join codes are made of: capital letters and
// digits without the ones read or typed as another (0 and O, 1, I and L).
const JoinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// JoinCodeLength is how many characters a join code has: 31^6, about 887
// million codes, read aloud as two groups of three.
const JoinCodeLength = 6

// NewJoinCode returns a fresh random join code.
func NewJoinCode() string {
	b := make([]byte, JoinCodeLength)
	var out [JoinCodeLength]byte
	for i := 0; i < JoinCodeLength; {
		_, _ = rand.Read(b) // never fails on supported platforms
		for _, c := range b {
			// 31*8 = 248: bytes from 248 up would favour the first letters.
			if c < 248 && i < JoinCodeLength {
				out[i] = JoinCodeAlphabet[int(c)%len(JoinCodeAlphabet)]
				i++
			}
		}
	}
	return string(out[:])
}

// NormalizeJoinCode returns a join code as a person may have typed it
// ("abc def", "ABC-DEF") in its stored form, and false when it cannot be one
// (a wrong length, or a character no code holds, such as O or 1).
func NormalizeJoinCode(s string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-':
			continue
		case r < 128 && strings.IndexByte(JoinCodeAlphabet, byte(r)) >= 0:
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	if b.Len() != JoinCodeLength {
		return "", false
	}
	return b.String(), true
}

// NextSecret is the credential a holder of secret gets in the game that
// follows, gameID: the server stores only its hash, and whoever holds secret
// can ask for it again and gets the same one.
func NextSecret(secret, gameID string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("treasury next game\x00" + gameID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:24])
}
