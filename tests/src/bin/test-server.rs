//! The workspace test server, built as a binary of this package for the tests.
fn main() -> std::process::ExitCode {
    mcp_test_server::main_with_args(std::env::args())
}
