# make test: the Homebrew formula's shape, checked without Homebrew (there is no Mac here; the
# macOS CI job installs it for real). The formula is loaded against a small stand-in for
# Homebrew's DSL that records what it declares and what `install` would run, then each record is
# compared with this checkout: the tag with StubdVersion.current, the built paths with the
# packages, the completion command with the built stubd.
#   ruby packaging/homebrew/check-formula.rb [path/to/stubd]
require "pathname"

ROOT = Pathname(__dir__).parent.parent
FAILURES = []
def check(ok, what) = (FAILURES << what unless ok)

class Formula
  class << self
    attr_reader :declared, :test_block

    def inherited(subclass) = subclass.instance_variable_set(:@declared, Hash.new { |h, k| h[k] = [] })
    %i[desc homepage url license head depends_on uses_from_macos].each do |name|
      define_method(name) { |*args, **options| @declared[name] << [args, options] }
    end
    def test(&block) = @test_block = block
    def [](name) = Struct.new(:opt_lib).new(Pathname("/opt/homebrew/opt/#{name}/lib"))
  end

  Recorder = Struct.new(:calls) do
    def install(*args) = calls << args
  end

  attr_reader :systems, :bin_installs, :share_installs, :completions

  def initialize
    @systems = []
    @bin_installs = Recorder.new([])
    @share_installs = Recorder.new([])
    @completions = []
  end

  def system(*args) = @systems << args.map(&:to_s)
  def bin = BinPath.new(@bin_installs)
  def pkgshare = @share_installs
  def generate_completions_from_executable(*args, **options) = @completions << [args.map(&:to_s), options]

  # `bin` is a path (`bin/"stubd"`) that can also install.
  class BinPath < Pathname
    def initialize(recorder)
      super("/prefix/bin")
      @recorder = recorder
    end

    def install(*args) = @recorder.install(*args)
  end
end

def ENV.prepend_path(name, value) = (self[name] = [value.to_s, self[name]].compact.join(":"))

load ROOT.join("packaging/homebrew/stubd.rb").to_s
formula = Stubd.new
declared = Stubd.declared
version = File.read(ROOT.join("Sources/StubdCommands/Stubd.swift"))[/static let current = "([^"]+)"/, 1]

url, url_options = declared[:url].first
check(url&.first&.end_with?(".git") && url_options[:tag] == "v#{version}",
      "url names the tag v#{version} (StubdVersion.current), got #{url.inspect} #{url_options.inspect}")
check(declared[:head].any?, "a head (main) for brew install --HEAD")
check(declared[:desc].any? && declared[:homepage].any? && declared[:license].any?, "desc, homepage and license")
needs = declared[:depends_on].map { |args, options| args.first || options }
%w[libevent nghttp2 openssl@3].each { |name| check(needs.include?(name), "depends_on #{name.inspect}") }
check(needs.any? { |need| need.is_a?(Hash) && need.key?(:xcode) }, "depends_on xcode (a Swift 6 toolchain) for the build")
check(needs.any? { |need| need.is_a?(Hash) && need[:macos] == :sequoia }, "depends_on macos: :sequoia (Synchronization needs macOS 15)")

formula.install
builds = formula.systems.select { |args| args[0] == "swift" && args[1] == "build" }
stubd_build = builds.find { |args| args.each_cons(2).include?(["--product", "stubd"]) && args.include?("release") }
openapi_build = builds.find do |args|
  args.each_cons(2).include?(["--package-path", "Tools/stubd-openapi"]) && args.each_cons(2).include?(["--product", "stubd-openapi"])
end
check(stubd_build, "install builds the stubd product in release: #{builds.inspect}")
check(openapi_build, "install builds stubd-openapi from Tools/stubd-openapi: #{builds.inspect}")
check(builds.all? { |args| args.include?("--disable-sandbox") }, "swift build runs with --disable-sandbox (Homebrew's sandbox)")
check(ROOT.join("Tools/stubd-openapi/Package.swift").exist?, "Tools/stubd-openapi is a package")
installed = formula.bin_installs.calls.flatten.map(&:to_s)
check(installed.sort == [".build/release/stubd", "Tools/stubd-openapi/.build/release/stubd-openapi"].sort,
      "bin.install puts stubd and stubd-openapi side by side: #{installed.inspect}")
check(formula.share_installs.calls.flatten.any? { |item| item.is_a?(Hash) && item["fixtures"] }, "the demo fixtures are installed")
completion = formula.completions.first
check(completion && completion[0] == ["/prefix/bin/stubd", "--generate-completion-script"],
      "completions come from stubd --generate-completion-script: #{formula.completions.inspect}")
if (stubd = ARGV[0]) && completion
  %w[bash zsh fish].each do |shell|
    script = IO.popen([stubd, "--generate-completion-script", shell], err: File::NULL, &:read)
    check($?.success? && script.include?("serve"), "#{stubd} --generate-completion-script #{shell} prints a script naming serve")
  end
end

block = Stubd.test_block
check(block, "a test do block")
if block
  file, line = block.source_location
  body = File.readlines(file)[(line - 1)..].take_while { |text| text !~ /^  end$/ }.join
  %w[spawn serve --ready-file curl /zen import openapi Process.kill].each do |word|
    check(body.include?(word), "the test block uses #{word} (serves the demo, curls it, imports a spec, stops)")
  end
end

if FAILURES.empty?
  puts "check-formula: packaging/homebrew/stubd.rb: tag v#{version}, libevent, nghttp2 and openssl@3, stubd and stubd-openapi built and installed, completions, a test that serves and curls"
else
  FAILURES.each { |failure| warn "check-formula: FAILED: #{failure}" }
  exit 1
end
