package client

import (
	"context"
	"net/http"
)

// Bearer returns a request editor that sends credential as
// "Authorization: Bearer <credential>", for the calls that act for a seat or
// the host:
//
//	c.SubmitMoveWithResponse(ctx, id, nil, move, client.Bearer(seatCredential))
func Bearer(credential string) RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+credential)
		return nil
	}
}
