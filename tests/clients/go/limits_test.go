package clients_test

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

func TestMessageOverSizeLimit(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	huge := strings.Repeat("a", e.maxBytes+1024)
	t.Run("Search", func(t *testing.T) {
		_, err := client.Search(bounded(t), &chsrv1.SearchRequest{Query: huge, K: 3})
		st := wantCode(t, err, codes.ResourceExhausted)
		t.Logf("message: %s", st.Message())
	})
	t.Run("Delete", func(t *testing.T) {
		ids := make([]string, 0, e.maxBytes/40)
		for i := range cap(ids) {
			ids = append(ids, fmt.Sprintf("go-client-huge-%07d-%s", i, strings.Repeat("x", 24)))
		}
		_, err := client.Delete(withAuth(bounded(t), bearer(e)), &chsrv1.DeleteRequest{DocIds: ids})
		wantCode(t, err, codes.ResourceExhausted)
	})
	t.Run("VerifyIndex", func(t *testing.T) {
		ids := make([]string, 0, e.maxBytes/40)
		for i := range cap(ids) {
			ids = append(ids, fmt.Sprintf("go-client-huge-%07d-%s", i, strings.Repeat("x", 24)))
		}
		_, err := client.VerifyIndex(bounded(t), &chsrv1.VerifyIndexRequest{ExpectedIds: ids})
		wantCode(t, err, codes.ResourceExhausted)
	})
	t.Run("IngestWithProgress", func(t *testing.T) {
		stream, err := client.IngestWithProgress(withAuth(bounded(t), bearer(e)))
		if err != nil {
			t.Fatalf("IngestWithProgress: %v", err)
		}
		_ = stream.Send(&chsrv1.IngestWithProgressRequest{Documents: []*chsrv1.Document{{Id: "go-client-huge", Text: huge}}})
		_ = stream.CloseSend()
		acks, err := recvAll(stream.Recv)
		if len(acks) != 0 {
			t.Fatalf("an over-limit batch was acknowledged: %v", acks)
		}
		wantCode(t, err, codes.ResourceExhausted)
	})
}
