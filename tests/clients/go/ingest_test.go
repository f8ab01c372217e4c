package clients_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

// goDocs are documents only this test writes (and deletes again): text no other test searches for.
func goDocs(batch, size int) []*chsrv1.Document {
	docs := make([]*chsrv1.Document, 0, size)
	for i := range size {
		id := fmt.Sprintf("go-client-%d-%d", batch, i)
		subject, level := "physics", "grade_10"
		docs = append(docs, &chsrv1.Document{Id: id, Title: "Go client fixture " + id,
			Text:     fmt.Sprintf("Zebrafish lanterns %d drift over the quiet harbour of batch %d.", i, batch),
			Metadata: &chsrv1.Metadata{Subject: &subject, Level: &level}})
	}
	return docs
}

func TestIngestWithProgress(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	const batches, size = 3, 4
	stream, err := client.IngestWithProgress(withAuth(bounded(t), bearer(e)))
	if err != nil {
		t.Fatalf("IngestWithProgress: %v", err)
	}
	var ids []string
	for b := range batches {
		docs := goDocs(b, size)
		for _, d := range docs {
			ids = append(ids, d.GetId())
		}
		if err := stream.Send(&chsrv1.IngestWithProgressRequest{Documents: docs}); err != nil {
			t.Fatalf("Send batch %d: %v", b, err)
		}
		// The gateway acknowledges each batch once every backend stored it, before the next is sent.
		ack, err := stream.Recv()
		if err != nil {
			t.Fatalf("Recv ack %d: %v", b, err)
		}
		if ack.GetBatches() != int32(b+1) || ack.GetReceived() != int32((b+1)*size) || ack.GetSummary() != nil {
			t.Fatalf("ack %d = %v, want batches=%d received=%d and no summary", b, ack, b+1, (b+1)*size)
		}
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatalf("CloseSend: %v", err)
	}
	rest, err := recvAll(stream.Recv)
	if err != nil {
		t.Fatalf("Recv summary: %v", err)
	}
	if len(rest) != 1 || rest[0].GetSummary() == nil {
		t.Fatalf("want one last message with the summary, got %v", rest)
	}
	if s := rest[0].GetSummary(); s.GetReceived() != batches*size || s.GetIndexed()+s.GetUnchanged() != batches*size {
		t.Fatalf("summary %v, want %d received", s, batches*size)
	}

	t.Run("Delete_with_token", func(t *testing.T) {
		resp, err := client.Delete(withAuth(bounded(t), bearer(e)), &chsrv1.DeleteRequest{DocIds: ids})
		if err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if resp.GetDeleted() != int32(len(ids)) {
			t.Fatalf("deleted %d, want %d", resp.GetDeleted(), len(ids))
		}
	})
}

// badAuth is the metadata a write may wrongly carry.
var badAuth = []struct{ name, value string }{
	{"missing", ""},
	{"wrong_token", "Bearer not-the-token"},
	{"no_bearer_prefix", "<token>"},
	{"lowercase_scheme", "bearer <token>"},
}

func authValue(e env, v string) string {
	switch v {
	case "<token>":
		return e.token
	case "bearer <token>":
		return "bearer " + e.token
	}
	return v
}

func TestWritesWithoutTokenAreUnauthenticated(t *testing.T) {
	e := meshEnv(t)
	if e.token == "" {
		t.Skip("the mesh has no CHSR_INGEST_TOKEN")
	}
	client := gatewayClient(t, e)
	for _, tc := range badAuth {
		t.Run("Delete/"+tc.name, func(t *testing.T) {
			_, err := client.Delete(withAuth(bounded(t), authValue(e, tc.value)),
				&chsrv1.DeleteRequest{DocIds: []string{"go-client-never-stored"}})
			wantCode(t, err, codes.Unauthenticated)
		})
		t.Run("IngestWithProgress/"+tc.name, func(t *testing.T) {
			stream, err := client.IngestWithProgress(withAuth(bounded(t), authValue(e, tc.value)))
			if err != nil {
				t.Fatalf("IngestWithProgress: %v", err)
			}
			// Send may or may not see the rejection (it can race the server's answer); Recv must.
			_ = stream.Send(&chsrv1.IngestWithProgressRequest{Documents: goDocs(99, 1)})
			_ = stream.CloseSend()
			acks, err := recvAll(stream.Recv)
			if len(acks) != 0 {
				t.Fatalf("an unauthenticated ingest was acknowledged: %v", acks)
			}
			wantCode(t, err, codes.Unauthenticated)
		})
		t.Run("Ingest/"+tc.name, func(t *testing.T) {
			stream, err := client.Ingest(withAuth(bounded(t), authValue(e, tc.value)))
			if err != nil {
				t.Fatalf("Ingest: %v", err)
			}
			_ = stream.Send(&chsrv1.IngestRequest{Documents: goDocs(98, 1)})
			_, err = stream.CloseAndRecv()
			wantCode(t, err, codes.Unauthenticated)
		})
	}
}

func TestDeleteInvalidArgument(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	_, err := client.Delete(withAuth(bounded(t), bearer(e)), &chsrv1.DeleteRequest{})
	wantCode(t, err, codes.InvalidArgument)
}
