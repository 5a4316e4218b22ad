module sequuid.example/conformance

go 1.19

require (
	github.com/gofrs/uuid/v5 v5.4.0
	github.com/google/uuid v1.6.0
)
