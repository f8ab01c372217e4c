// Package clients_test calls a running chsr mesh the way another team's Go service would: with
// stubs generated from protos/ and nothing else from this repository.
//
// Environment (set by tests/clients/test_go.py; without CHSR_TEST_GATEWAY every test skips):
//
//	CHSR_TEST_GATEWAY            host:port of the gateway
//	CHSR_TEST_TOKEN              bearer token the mesh's writes need (CHSR_INGEST_TOKEN)
//	CHSR_TEST_MAX_MESSAGE_BYTES  the mesh's message size limit (CHSR_MAX_MESSAGE_BYTES)
//	CHSR_TEST_SERVERS            name=host:port,... of every server, for the health checks
package clients_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	chsrv1 "chsr.local/clients/gen/chsr/v1"
)

// callTimeout bounds every call of a test that is not about deadlines, so a hung mesh fails the
// test instead of hanging `go test`.
const callTimeout = 30 * time.Second

// fieldKey is the trailing-metadata key that names the offending field of an INVALID_ARGUMENT.
const fieldKey = "chsr-field"

// env is the mesh under test.
type env struct {
	gateway  string
	token    string
	maxBytes int
	servers  map[string]string
}

func meshEnv(t *testing.T) env {
	t.Helper()
	addr := os.Getenv("CHSR_TEST_GATEWAY")
	if addr == "" {
		t.Skip("CHSR_TEST_GATEWAY not set: no mesh to call (tests/clients/test_go.py sets it)")
	}
	e := env{gateway: addr, token: os.Getenv("CHSR_TEST_TOKEN"), maxBytes: 16 << 20,
		servers: map[string]string{"gateway": addr}}
	if v := os.Getenv("CHSR_TEST_MAX_MESSAGE_BYTES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("CHSR_TEST_MAX_MESSAGE_BYTES=%q: %v", v, err)
		}
		e.maxBytes = n
	}
	for _, pair := range strings.Split(os.Getenv("CHSR_TEST_SERVERS"), ",") {
		if name, hostport, ok := strings.Cut(pair, "="); ok {
			e.servers[name] = hostport
		}
	}
	return e
}

// dial connects without TLS (the test mesh listens on loopback) and closes at the end of the test.
func dial(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("grpc.NewClient(%s): %v", addr, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func gatewayClient(t *testing.T, e env) chsrv1.GatewayServiceClient {
	t.Helper()
	return chsrv1.NewGatewayServiceClient(dial(t, e.gateway))
}

// bounded is a context with the test's call timeout.
func bounded(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	return ctx
}

// withDeadline is context.Background() for d == 0 (the call carries no deadline at all, as
// grpcurl and a plain stub send it), else a context that expires after d.
func withDeadline(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	if d == 0 {
		return context.Background()
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// withAuth adds `authorization: <value>` to the outgoing metadata ("" adds nothing).
func withAuth(ctx context.Context, value string) context.Context {
	if value == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", value)
}

func bearer(e env) string { return "Bearer " + e.token }

// outcome logs the status a call ended with, in a line tests/clients/test_go.py puts in its
// RPC x client table.
func outcome(t *testing.T, err error) {
	t.Helper()
	t.Logf("chsr-outcome: %v", status.Code(err))
}

// wantCode fails unless err carries code want; it returns the status for further checks.
func wantCode(t *testing.T, err error, want codes.Code) *status.Status {
	t.Helper()
	outcome(t, err)
	st, ok := status.FromError(err)
	if !ok {
		t.Fatalf("want %v, got a non-gRPC error %v", want, err)
	}
	if st.Code() != want {
		t.Fatalf("want %v, got %v: %s", want, st.Code(), st.Message())
	}
	return st
}

// neverUnknownOrInternal fails on the two codes the mesh must never answer for a client's input.
func neverUnknownOrInternal(t *testing.T, err error) {
	t.Helper()
	if c := status.Code(err); c == codes.Unknown || c == codes.Internal {
		t.Fatalf("got %v (%v): bad input must get a specific status", c, err)
	}
}

// recvAll drains a server stream; it returns the messages and the error that ended it (nil at EOF).
func recvAll[T any](recv func() (*T, error)) ([]*T, error) {
	var out []*T
	for {
		msg, err := recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, msg)
	}
}
