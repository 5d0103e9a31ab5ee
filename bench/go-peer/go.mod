module pbf-explorer/bench/go-peer

go 1.22

require github.com/paulmach/osm v0.8.0

require (
	github.com/datadog/czlib v0.0.0-20160811164712-4bc9a24e37f2 // indirect
	github.com/paulmach/orb v0.1.3 // indirect
	github.com/paulmach/protoscan v0.2.1 // indirect
	google.golang.org/protobuf v1.27.1 // indirect
)
