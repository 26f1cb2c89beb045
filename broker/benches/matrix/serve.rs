//! The broker the benchmarks measure: in-process, on a thread, on loopback.

use accord_broker::BrokerConfig;

/// Starts the broker on `url`'s database; returns its base URL.
pub fn serve(url: &str) -> String {
    let mut config = BrokerConfig::new(url.to_owned());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(2);
    config.pool_size = 4;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let running = accord_broker::start(config).expect("broker starts");
            tx.send(running.addr).expect("send address");
            let _ = running.server.await;
        });
    });
    format!("http://{}", rx.recv().expect("broker address"))
}
