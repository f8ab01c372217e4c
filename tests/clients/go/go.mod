// The Go client of the chsr API as another team would write it (issue 10): code generated from
// protos/ by protoc-gen-go + protoc-gen-go-grpc (`buf generate`, buf.gen.yaml at the repo root,
// into gen/, not committed), run with `go test` against a running mesh (tests/clients/test_go.py).
module chsr.local/clients

// google.golang.org/grpc v1.85.0 declares go 1.26.0; the installed toolchain is Go 1.26.8.
go 1.26.0

require (
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)
