# Homebrew formula for stubd. Until a tap exists:
#   brew install --formula ./packaging/homebrew/stubd.rb          # the tagged release
#   brew install --HEAD --formula ./packaging/homebrew/stubd.rb   # main
# The tag below is StubdVersion.current (make test checks they agree); a release pushes that tag.
class Stubd < Formula
  desc "Local HTTP stub server for APIs described the Moya way"
  homepage "https://github.com/stubd/stubd"
  url "https://github.com/stubd/stubd.git", tag: "v0.12.0"
  license "MIT"
  head "https://github.com/stubd/stubd.git", branch: "main"

  # The server uses Swift's Synchronization module: macOS 15 and a Swift 6 toolchain (Xcode 16).
  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on macos: :sequoia
  depends_on "libevent"
  depends_on "nghttp2"
  depends_on "openssl@3"

  uses_from_macos "curl" => :test
  uses_from_macos "zlib"

  def install
    # OpenSSL is keg-only: SwiftPM finds it (and libevent_openssl) through pkg-config.
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["openssl@3"].opt_lib/"pkgconfig"
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "stubd"
    # `stubd import openapi` runs stubd-openapi from the same folder (a package of its own).
    system "swift", "build", "--disable-sandbox", "-c", "release",
           "--package-path", "Tools/stubd-openapi", "--product", "stubd-openapi"
    bin.install ".build/release/stubd", "Tools/stubd-openapi/.build/release/stubd-openapi"
    generate_completions_from_executable(bin/"stubd", "--generate-completion-script")
    pkgshare.install "fixtures" => "demo-fixtures"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/stubd --version") if build.stable?
    port = free_port
    ready = testpath/"ready"
    pid = spawn bin/"stubd", "serve", pkgshare/"demo-fixtures", "--port", port.to_s, "--ready-file", ready.to_s
    begin
      100.times do
        break if ready.exist?

        sleep 0.1
      end
      assert_path_exists ready
      assert_equal "Design for failure.", shell_output("curl -s http://127.0.0.1:#{port}/zen")
      (testpath/"spec.json").write <<~JSON
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {"/motd": {"get": {"responses": {"200": {"description": "d",
           "content": {"text/plain": {"example": "hi"}}}}}}}}
      JSON
      system bin/"stubd", "import", "openapi", testpath/"spec.json", "--out", testpath/"imported"
      assert_match "/motd", (testpath/"imported/spec.json").read
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
