// Records the uuid crate's locked version and the compiler's for the program's "version" lines.
use std::process::Command;

fn main() {
    let lock = std::fs::read_to_string("Cargo.lock").expect("Cargo.lock");
    let mut lines = lock.lines();
    let mut version = String::from("unknown");
    while let Some(line) = lines.next() {
        if line == "name = \"uuid\"" {
            if let Some(next) = lines.next() {
                version = next.trim_start_matches("version = ").trim_matches('"').to_string();
            }
        }
    }
    println!("cargo:rustc-env=UUID_CRATE_VERSION={}", version);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = Command::new(rustc).arg("--version").output().expect("rustc --version");
    println!("cargo:rustc-env=RUSTC_VERSION_TEXT={}", String::from_utf8_lossy(&output.stdout).trim());
    println!("cargo:rerun-if-changed=Cargo.lock");
}
