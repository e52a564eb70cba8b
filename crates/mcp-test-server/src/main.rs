//! `mcp-test-server`: see the library documentation and `--help`.

fn main() -> std::process::ExitCode {
    mcp_test_server::main_with_args(std::env::args())
}
