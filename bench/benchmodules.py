"""The bench scripts as modules of one another: `load("quality-bench.py")`.

Their file names have hyphens, so `import` cannot name them. A script is loaded once per
process, under its name with underscores (quality_bench), and registered in sys.modules
under it, so worker processes that unpickle one of its functions find the module. That
holds for workers forked from the process (Linux's default through Python 3.13); a spawned
worker (macOS, or Linux from Python 3.14) starts afresh and finds the module only when the
script that uses it loads it at its top level, not inside a function.
"""
import importlib.util, os, signal, sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SAMPLE_BANNERS = sorted((BENCH.parent / "SampleImages" / "banners").glob("*.png"))
PNGSUITE = BENCH.parent.parent / "shared" / "pngsuite"


def load(file):
    """The module of the script `file` in bench/ (e.g. "quality-bench.py"), loaded on first use."""
    name = file.removesuffix(".py").replace("-", "_")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def run_main(tool, main):
    """Runs a script's `main`: where a command it ran failed (encoder-bench.py's Unmeasured,
    told by name, so that the script need not load that module, and numpy with it, before
    quality-bench.py has installed numpy) or a file could not be read or written, `tool`
    ends with one line on stderr, and so it does on Ctrl-C or SIGTERM, each raised as
    KeyboardInterrupt so that the script's temporary folders are removed on the way out."""
    def interrupted(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(f"{tool}: interrupted")
    except Exception as error:
        if not isinstance(error, OSError) and type(error).__name__ != "Unmeasured":
            raise
        sys.exit(f"{tool}: could not measure: {error}")


def usage(tool, problem):
    """One line on stderr and exit status 64, for arguments that cannot be run."""
    print(f"{tool}: {problem}", file=sys.stderr)
    sys.exit(64)


def whole(value, least=1, most=None):
    """`value` as a whole number from `least` (to `most`, when given), or None: ASCII digits
    only (str.isdigit takes "²", which int() then refuses)."""
    if not (isinstance(value, str) and value.isascii() and value.isdecimal()):
        return None
    number = int(value)
    return number if number >= least and (most is None or number <= most) else None


def binary_seconds_seed(tool, args, seconds):
    """A random check's arguments, BIN [--seconds S] [--seed N]: the binary, the seconds to run
    (`seconds` by default) and the seed (1 by default), or exit 64."""
    if not args or not is_binary(args[0]):
        usage(tool, f"usage: {tool}.py BIN [--seconds S] [--seed N] (BIN a carousel executable)")
    values, rest = {"--seconds": seconds, "--seed": 1}, args[1:]
    while rest:
        flag = rest.pop(0)
        value = whole(rest.pop(0) if rest else "", least=0)
        if flag not in values or value is None:
            usage(tool, f"{flag}: expected --seconds or --seed and a whole number")
        values[flag] = value
    return args[0], values["--seconds"], values["--seed"]


def pngsuite_images(tool, absent):
    """PngSuite's images (../shared/pngsuite beside the repository), sorted; when the folder
    is absent, none, and a line on stderr: `tool`, the folder and `absent` (what the script
    does without them)."""
    if PNGSUITE.is_dir():
        return sorted(PNGSUITE.glob("*.png"))
    print(f"{tool}: {PNGSUITE} is absent: {absent}", file=sys.stderr)
    return []


def is_binary(path):
    """Whether `path` is an executable file (a carousel binary, for the scripts that take one)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)
