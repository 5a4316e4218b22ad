//! Prints UUIDv7s of the `uuid` crate (`Uuid::now_v7`) for sequuid's conformance harness.
//!
//!     conformance uuid burst COUNT | conformance uuid threads THREADS COUNT
//!
//! Output: "version V", "toolchain T", "start US", one "id THREAD HEX" per id in the order each thread made
//! them, "end US". Threads start together behind a barrier.
use std::io::{BufWriter, Write};
use std::sync::{Arc, Barrier};
use std::time::{SystemTime, UNIX_EPOCH};

fn now_us() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("clock after 1970").as_micros()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 || args[1] != "uuid" {
        eprintln!("usage: uuid burst COUNT | uuid threads THREADS COUNT");
        std::process::exit(2);
    }
    let (threads, count): (usize, usize) = if args[2] == "threads" {
        (args[3].parse().expect("THREADS"), args[4].parse().expect("COUNT"))
    } else {
        (1, args[3].parse().expect("COUNT"))
    };
    let barrier = Arc::new(Barrier::new(threads + 1));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut ids = Vec::with_capacity(count);
                barrier.wait();
                for _ in 0..count {
                    ids.push(uuid::Uuid::now_v7());
                }
                ids
            })
        })
        .collect();
    // the clock is read before the threads are let go, so that no id can be made before it
    let start = now_us();
    barrier.wait();
    let made: Vec<Vec<uuid::Uuid>> = handles.into_iter().map(|h| h.join().expect("thread")).collect();
    let end = now_us();

    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    writeln!(out, "version {}", env!("UUID_CRATE_VERSION")).unwrap();
    writeln!(out, "toolchain {}", env!("RUSTC_VERSION_TEXT")).unwrap();
    writeln!(out, "start {}", start).unwrap();
    for (thread, ids) in made.iter().enumerate() {
        for id in ids {
            writeln!(out, "id {} {}", thread, id.hyphenated()).unwrap();
        }
    }
    writeln!(out, "end {}", end).unwrap();
}
