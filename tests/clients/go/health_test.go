package clients_test

import (
	"sort"
	"testing"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// serviceOf is the named service each server registers in its health service.
var serviceOf = map[string]string{
	"gateway": "chsr.v1.GatewayService", "gate": "chsr.v1.GateService",
	"sparse": "chsr.v1.RetrieverService", "dense": "chsr.v1.RetrieverService",
	"fusion": "chsr.v1.FusionService", "rerank": "chsr.v1.RerankService",
}

func TestHealth(t *testing.T) {
	e := meshEnv(t)
	names := make([]string, 0, len(e.servers))
	for name := range e.servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		health := healthpb.NewHealthClient(dial(t, e.servers[name]))
		for _, service := range []string{"", serviceOf[name]} {
			label := name + "/" + service
			if service == "" {
				label = name + "/overall"
			}
			t.Run("Check/"+label, func(t *testing.T) {
				resp, err := health.Check(bounded(t), &healthpb.HealthCheckRequest{Service: service})
				if err != nil {
					t.Fatalf("Check(%q): %v", service, err)
				}
				if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
					t.Fatalf("Check(%q) = %v, want SERVING", service, resp.GetStatus())
				}
			})
			t.Run("Watch/"+label, func(t *testing.T) {
				// Watch streams the current status at once, then every change; the first is enough.
				stream, err := health.Watch(bounded(t), &healthpb.HealthCheckRequest{Service: service})
				if err != nil {
					t.Fatalf("Watch(%q): %v", service, err)
				}
				resp, err := stream.Recv()
				if err != nil {
					t.Fatalf("Watch(%q).Recv: %v", service, err)
				}
				if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
					t.Fatalf("Watch(%q) = %v, want SERVING", service, resp.GetStatus())
				}
			})
		}
		t.Run("Check/"+name+"/unknown_service", func(t *testing.T) {
			_, err := health.Check(bounded(t), &healthpb.HealthCheckRequest{Service: "chsr.v1.NoSuchService"})
			wantCode(t, err, codes.NotFound)
		})
	}
}
