// Command specbundle writes the served openapi.yaml from openapi.base.yaml and
// the spec file of every registered game (domain/rulesets.All()), the Go
// client's table of event data types (api/client/events.gen.go) and the
// table app's list of game screens (web/src/games.gen.ts). The go:generate
// line in openapi.go runs it from the module's root, before oapi-codegen reads
// openapi.yaml.
//
// A game's spec file is openapi.yaml in its folder (the folder of its Go
// package). Its components.schemas join the bundle where openapi.base.yaml
// says "# {{game schemas}}", copied as written, and its x-bundle says what
// the shared parts take from it:
//
//	x-bundle:
//	  about: the game's line in info.description ({{games}})
//	  unions: {Move: [ItsMove, ...], ...}   members of the base's x-bundle: union schemas
//	  rules: {slug: sentence, ...}           its x-rules of Problem.rule
//	  events:
//	    intro: the words before its events in EventStream ({{events}})
//	    list: [{event, schema, description}] its events: x-events, StreamEvent, EventStream
//
// The bundle is spliced as text, so that comments, blank lines and quoting stay
// as they were written (yaml.v3 re-encoding loses blank lines and rewrites
// quotes); yaml.v3 reads what the splicing needs, and the result is read
// back and validated before it is written.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/treasury-games/treasury/domain/rulesets"
)

func main() {
	root := flag.String("root", ".", "the module's root")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "specbundle:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	games, err := loadGames(root, rulesets.All())
	if err != nil {
		return err
	}
	base, err := os.ReadFile(root + "/" + BaseFile)
	if err != nil {
		return err
	}
	spec, err := Bundle(base, games)
	if err != nil {
		return err
	}
	if err := os.WriteFile(root+"/openapi.yaml", spec, 0o644); err != nil {
		return err
	}
	types, err := EventTypes(base, games)
	if err != nil {
		return err
	}
	if err := os.WriteFile(root+"/"+EventTypesFile, types, 0o644); err != nil {
		return err
	}
	return os.WriteFile(root+"/"+ScreensFile, Screens(root, games), 0o644)
}
