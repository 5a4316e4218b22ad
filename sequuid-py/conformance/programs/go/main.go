// Prints UUIDv7s of github.com/google/uuid and github.com/gofrs/uuid/v5 for sequuid's conformance harness.
//
//	go run . IMPLEMENTATION burst COUNT | IMPLEMENTATION threads THREADS COUNT
//
// Output: "version V", "toolchain T", "start US", one "id THREAD HEX" per id in the order each goroutine
// made them, "end US". Goroutines run on as many OS threads as GOMAXPROCS allows and start together.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	gofrs "github.com/gofrs/uuid/v5"
	google "github.com/google/uuid"
)

var generators = map[string]struct {
	module   string
	generate func() string
}{
	"google/uuid": {"github.com/google/uuid", func() string { return google.Must(google.NewV7()).String() }},
	"gofrs/uuid": {"github.com/gofrs/uuid/v5", func() string { return gofrs.Must(gofrs.NewV7()).String() }},
}

func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func nowUs() int64 { return time.Now().UnixMicro() }

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: IMPLEMENTATION burst COUNT | IMPLEMENTATION threads THREADS COUNT")
		os.Exit(2)
	}
	impl, ok := generators[os.Args[1]]
	if !ok {
		fmt.Fprintln(os.Stderr, "unknown implementation", os.Args[1])
		os.Exit(2)
	}
	threads, count := 1, 0
	if os.Args[2] == "threads" {
		threads, _ = strconv.Atoi(os.Args[3])
		count, _ = strconv.Atoi(os.Args[4])
	} else {
		count, _ = strconv.Atoi(os.Args[3])
	}
	made := make([][]string, threads)
	var ready, done sync.WaitGroup
	startGate := make(chan struct{})
	ready.Add(threads)
	done.Add(threads)
	for t := 0; t < threads; t++ {
		go func(t int) {
			defer done.Done()
			ids := make([]string, count)
			ready.Done()
			<-startGate
			for i := range ids {
				ids[i] = impl.generate()
			}
			made[t] = ids
		}(t)
	}
	ready.Wait()
	start := nowUs()
	close(startGate)
	done.Wait()
	end := nowUs()

	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	fmt.Fprintf(out, "version %s\ntoolchain %s\nstart %d\n", moduleVersion(impl.module), runtime.Version(), start)
	for t, ids := range made {
		for _, id := range ids {
			fmt.Fprintf(out, "id %d %s\n", t, id)
		}
	}
	fmt.Fprintf(out, "end %d\n", end)
}
