package clients_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

// readmeExample is the Go example of the README's "Clients" section, verbatim between the markers
// (tests/clients/test_examples.py checks that the two agree).
func readmeExample(addr, token string) error {
	// README:begin
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := chsrv1.NewGatewayServiceClient(conn)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := client.Search(ctx, &chsrv1.SearchRequest{
		Query: "acceleration of a car, grade 10 physics", K: 3, Pipeline: "E"})
	if err != nil {
		return err
	}
	for _, r := range resp.GetResults() {
		fmt.Println(r.GetRank(), r.GetDocId(), r.GetRelaxation())
	}

	// A bad request is INVALID_ARGUMENT; the trailer chsr-field names the field.
	var trailer metadata.MD
	_, err = client.Search(ctx, &chsrv1.SearchRequest{Query: "acceleration", K: 0}, grpc.Trailer(&trailer))
	if status.Code(err) == codes.InvalidArgument {
		fmt.Println(trailer.Get("chsr-field"), status.Convert(err).Message()) // [k] k: must be in 1..100, got 0
	}

	// Writes carry the bearer token (CHSR_INGEST_TOKEN of the mesh).
	wctx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	del, err := client.Delete(wctx, &chsrv1.DeleteRequest{DocIds: []string{"no-such-doc"}})
	if err != nil {
		return err
	}
	fmt.Println("deleted", del.GetDeleted())
	// README:end
	return nil
}

func TestReadmeExample(t *testing.T) {
	e := meshEnv(t)
	if err := readmeExample(e.gateway, e.token); err != nil {
		t.Fatalf("the README's Go example failed: %v", err)
	}
}
