//! The one binary. In the browser (wasm32 with the `web` feature) it mounts the Yew app;
//! natively it is the command-line tool, `leaseline --help`.

#[cfg(all(target_arch = "wasm32", feature = "web"))]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = leaseline::cli::run(&args, &mut out, &mut err);
    std::process::exit(code);
}

#[cfg(all(target_arch = "wasm32", not(feature = "web")))]
fn main() {}
