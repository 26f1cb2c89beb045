//! Places the functions `accord serve` runs at start-up together in the
//! release binary (`link/startup-symbols.txt`, written by
//! `broker/bench/startup_order.py`), so the kernel maps ~3 MB of code into
//! an idle broker instead of ~14 MB (ARCHITECTURE.md "Start-up and idle
//! memory"). Only where the linker is known to be lld: Rust's default on
//! x86_64 Linux (the only linker with `--symbol-ordering-file` we can
//! count on), with no linker chosen by the user; anywhere else the binary
//! is linked as before. `ACCORD_NO_SYMBOL_ORDER=1` turns it off.

use std::env;
use std::path::Path;

const ORDER: &str = "link/startup-symbols.txt";

fn main() {
    println!("cargo::rerun-if-changed={ORDER}");
    println!("cargo::rerun-if-env-changed=ACCORD_NO_SYMBOL_ORDER");
    if env::var_os("ACCORD_NO_SYMBOL_ORDER").is_some_and(|v| v != "0") {
        return;
    }
    let release = env::var("PROFILE").is_ok_and(|p| p == "release");
    let default_lld = env::var("TARGET").is_ok_and(|t| t == "x86_64-unknown-linux-gnu")
        && env::var_os("RUSTC_LINKER").is_none()
        && !env::var("CARGO_ENCODED_RUSTFLAGS")
            .is_ok_and(|f| f.contains("linker") || f.contains("link-self-contained"));
    let Ok(dir) = env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let order = Path::new(&dir).join(ORDER);
    if release && default_lld && order.is_file() {
        println!(
            "cargo::rustc-link-arg-bin=accord=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo::rustc-link-arg-bin=accord=-Wl,--no-warn-symbol-ordering");
    }
}
