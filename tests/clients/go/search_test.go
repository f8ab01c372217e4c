package clients_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

// deadlines a client may send: none (Go's default), a normal one, and a generous one the server
// caps. Every one must get the same answer.
var deadlines = []struct {
	name string
	d    time.Duration
}{
	{"no_deadline", 0},
	{"deadline_10s", 10 * time.Second},
	{"deadline_10min", 10 * time.Minute},
}

// ranking is what a search answered, comparable across calls.
func ranking(resp *chsrv1.SearchResponse) []string {
	out := make([]string, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		out = append(out, r.GetDocId()+"@"+r.GetRelaxation().String())
	}
	return out
}

func TestSearch(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	for _, pipeline := range []string{"rrf", "E", "sparse", "dense"} {
		t.Run(pipeline, func(t *testing.T) {
			var want []string
			for _, dl := range deadlines {
				t.Run(dl.name, func(t *testing.T) {
					req := &chsrv1.SearchRequest{Query: "acceleration of a car, grade 10 physics", K: 3,
						Pipeline: pipeline, NoCache: true}
					resp, err := client.Search(withDeadline(t, dl.d), req)
					if err != nil {
						t.Fatalf("Search: %v", err)
					}
					if len(resp.GetResults()) == 0 || len(resp.GetResults()) > 3 {
						t.Fatalf("want 1..3 results, got %d", len(resp.GetResults()))
					}
					if len(resp.GetDegraded()) != 0 {
						t.Fatalf("degraded answer %v", resp.GetDegraded())
					}
					got := ranking(resp)
					if want == nil {
						want = got
					} else if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Fatalf("answer depends on the deadline: %v vs %v without one", got, want)
					}
				})
			}
		})
	}
}

func TestSearchTinyDeadline(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	req := &chsrv1.SearchRequest{Query: "photosynthesis in plants", K: 5, Pipeline: "E", NoCache: true}
	_, err := client.Search(withDeadline(t, time.Millisecond), req)
	wantCode(t, err, codes.DeadlineExceeded)
}

func TestSearchInvalidArgument(t *testing.T) {
	e := meshEnv(t)
	client := gatewayClient(t, e)
	cases := []struct {
		name  string
		req   *chsrv1.SearchRequest
		field string
	}{
		{"k_zero", &chsrv1.SearchRequest{Query: "acceleration", K: 0}, "k"},
		{"k_over_max", &chsrv1.SearchRequest{Query: "acceleration", K: 101}, "k"},
		{"k_negative", &chsrv1.SearchRequest{Query: "acceleration", K: -3}, "k"},
		{"unknown_pipeline", &chsrv1.SearchRequest{Query: "acceleration", K: 3, Pipeline: "warp-drive"}, "pipeline"},
		{"empty_query", &chsrv1.SearchRequest{Query: "  ", K: 3}, "query"},
		{"year_hint_out_of_range", &chsrv1.SearchRequest{Query: "acceleration", K: 3,
			Hints: &chsrv1.Scope{Year: []int32{1200}}}, "hints.year"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, dl := range deadlines {
				var trailer metadata.MD
				_, err := client.Search(withDeadline(t, dl.d), proto.Clone(tc.req).(*chsrv1.SearchRequest),
					grpc.Trailer(&trailer))
				st := wantCode(t, err, codes.InvalidArgument)
				if got := trailer.Get(fieldKey); len(got) != 1 || got[0] != tc.field {
					t.Fatalf("%s: trailer %s = %v, want [%s]", dl.name, fieldKey, got, tc.field)
				}
				t.Logf("chsr-outcome: InvalidArgument (field %s)", trailer.Get(fieldKey))
				if !strings.HasPrefix(st.Message(), tc.field+": ") {
					t.Fatalf("%s: message %q does not start with the field %q", dl.name, st.Message(), tc.field)
				}
				if first == "" {
					first = st.Message()
				} else if st.Message() != first {
					t.Fatalf("%s: message %q differs from %q without a deadline", dl.name, st.Message(), first)
				}
			}
		})
	}
}
