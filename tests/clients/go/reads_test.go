package clients_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

// TestReadsWithAndWithoutDeadline: the other unary reads answer the same with no deadline,
// a normal one and a 10-minute one.
func TestReadsWithAndWithoutDeadline(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	calls := []struct {
		name string
		call func(t *testing.T, d time.Duration) (proto.Message, error)
	}{
		{"ListPipelines", func(t *testing.T, d time.Duration) (proto.Message, error) {
			return client.ListPipelines(withDeadline(t, d), &chsrv1.ListPipelinesRequest{})
		}},
		{"IndexStats", func(t *testing.T, d time.Duration) (proto.Message, error) {
			resp, err := client.IndexStats(withDeadline(t, d), &chsrv1.IndexStatsRequest{})
			if err == nil {
				for _, b := range resp.GetBackends() {
					if b.GetDocuments() < 1 {
						t.Errorf("backend %s reports %d documents", b.GetBackend(), b.GetDocuments())
					}
					b.Details = nil // engine details (sizes, timings) may change between calls
				}
			}
			return resp, err
		}},
		{"VerifyIndex", func(t *testing.T, d time.Duration) (proto.Message, error) {
			resp, err := client.VerifyIndex(withDeadline(t, d), &chsrv1.VerifyIndexRequest{})
			if err == nil && !resp.GetConsistent() {
				t.Errorf("index not consistent: %v", resp)
			}
			return resp, err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			var first proto.Message
			for _, dl := range deadlines {
				resp, err := c.call(t, dl.d)
				if err != nil {
					t.Fatalf("%s %s: %v", c.name, dl.name, err)
				}
				if first == nil {
					first = resp
				} else if !proto.Equal(resp, first) {
					t.Fatalf("%s %s answered %v, without a deadline %v", c.name, dl.name, resp, first)
				}
			}
		})
	}
}

// TestTinyDeadline: a 1 ms deadline ends in DEADLINE_EXCEEDED (or, for a call the server can
// finish in time, an answer), never another code.
func TestTinyDeadline(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	calls := []struct {
		name string
		call func(t *testing.T) error
	}{
		{"ListPipelines", func(t *testing.T) error {
			_, err := client.ListPipelines(withDeadline(t, time.Millisecond), &chsrv1.ListPipelinesRequest{})
			return err
		}},
		{"IndexStats", func(t *testing.T) error {
			_, err := client.IndexStats(withDeadline(t, time.Millisecond), &chsrv1.IndexStatsRequest{})
			return err
		}},
		{"VerifyIndex", func(t *testing.T) error {
			_, err := client.VerifyIndex(withDeadline(t, time.Millisecond), &chsrv1.VerifyIndexRequest{})
			return err
		}},
		{"Delete", func(t *testing.T) error {
			_, err := client.Delete(withAuth(withDeadline(t, time.Millisecond), bearer(e)),
				&chsrv1.DeleteRequest{DocIds: []string{"go-client-never-stored"}})
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call(t)
			outcome(t, err)
			neverUnknownOrInternal(t, err)
			if c := status.Code(err); c != codes.OK && c != codes.DeadlineExceeded {
				t.Fatalf("want DEADLINE_EXCEEDED (or OK), got %v: %v", c, err)
			}
		})
	}
}
