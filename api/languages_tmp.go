package api

// TEMPORARY (branch i18n-app only, deleted at merge together with its call in
// handler.go): the two language routes the table app reads, until the API's
// own (openapi.yaml) arrive.

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/domain/i18n"
)

func languagesTmp(e *echo.Echo) {
	e.GET("/v1/languages", func(c echo.Context) error {
		type lang struct {
			Tag  string `json:"tag"`
			Name string `json:"name"`
		}
		out := struct {
			Languages []lang `json:"languages"`
		}{}
		for _, l := range i18n.Languages() {
			out.Languages = append(out.Languages, lang{string(l), i18n.Render(l, i18n.M("language.name"))})
		}
		return c.JSON(http.StatusOK, out)
	})
	e.GET("/v1/languages/:lang", func(c echo.Context) error {
		l := i18n.Lang(c.Param("lang"))
		if !i18n.Supported(l) {
			return echo.ErrNotFound
		}
		return c.JSONBlob(http.StatusOK, i18n.Catalog(l))
	})
}
