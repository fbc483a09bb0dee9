//! A partition, for real: every client reaches the lock service through its own loopback TCP
//! proxy (a thread in the runner), which the runner can cut and heal. While cut, the proxy
//! keeps accepting and keeps connections open but passes no byte in either direction —
//! what a dropped link looks like to a client: requests that time out, not connections
//! refused. Storage is reached directly, so the cut is from the lock service only.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone)]
pub struct Proxy {
    pub addr: String,
    cut: Arc<AtomicBool>,
}

impl Proxy {
    /// Listens on a free loopback port, forwarding to `upstream`.
    pub fn start(upstream: &str) -> Result<Proxy, String> {
        let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let addr = l.local_addr().map_err(|e| e.to_string())?.to_string();
        let cut = Arc::new(AtomicBool::new(false));
        let (up, c) = (upstream.to_string(), cut.clone());
        std::thread::spawn(move || {
            for down in l.incoming().flatten() {
                let Ok(upc) = TcpStream::connect(&up) else {
                    continue;
                };
                for (a, b) in [(&down, &upc), (&upc, &down)] {
                    if let (Ok(a), Ok(b)) = (a.try_clone(), b.try_clone()) {
                        let c = c.clone();
                        std::thread::spawn(move || pump(a, b, c));
                    }
                }
            }
        });
        Ok(Proxy { addr, cut })
    }

    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
    }

    pub fn heal(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// Copies `from` → `to`, dropping what arrives while cut. Short read timeouts let it notice
/// a heal without data; a byte read during a cut is lost, as on a broken link.
fn pump(mut from: TcpStream, mut to: TcpStream, cut: Arc<AtomicBool>) {
    let _ = from.set_read_timeout(Some(Duration::from_millis(10)));
    let _ = to.set_nodelay(true);
    let mut buf = [0u8; 16 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) if !cut.load(Ordering::SeqCst) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}
