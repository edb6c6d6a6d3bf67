#!/usr/bin/env python3
"""Lays out (or removes) what `make install` and `make deb` install, under PREFIX:

    bin/destinations, bin/destinations-feed            the programs (release, static Swift runtime)
    share/destinations/                                the bundled posts (catalog, photos, placeholders)
    share/man/man1/destinations.1, destinations-feed.1 from the argument definitions (swift-argument-parser's
                                                       generate-manual, run by `make man`)
    share/bash-completion/completions/destinations     bash, zsh and fish completions, which the
    share/zsh/{site-functions,vendor-completions}/_…   programs write themselves
    share/fish/vendor_completions.d/….fish             (--generate-completion-script)

    scripts/install_tree.py install --prefix /usr/local [--root DESTDIR] [--gzip-man]
    scripts/install_tree.py uninstall --prefix /usr/local [--root DESTDIR]

`--root` puts the tree under a staging folder (a package's), `--gzip-man` compresses the
manual pages as Debian's policy asks. Uninstall removes exactly what install lays out.
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = ["destinations", "destinations-feed"]
ASSETS = ["catalog.json", "placeholders.json", "CREDITS.md", "photos"]


def layout(prefix, programs=PROGRAMS):
    """(path under the prefix, what goes there) for every file installed."""
    zsh = "share/zsh/vendor-completions" if prefix == "/usr" else "share/zsh/site-functions"
    files = []
    for program in programs:
        files += [(f"bin/{program}", ("program", program)),
                  (f"share/man/man1/{program}.1", ("manual", program)),
                  (f"share/bash-completion/completions/{program}", ("completion", program, "bash")),
                  (f"{zsh}/_{program}", ("completion", program, "zsh")),
                  (f"share/fish/vendor_completions.d/{program}.fish", ("completion", program, "fish"))]
    return files


def install(options):
    binaries, manuals = os.path.abspath(options.bin), os.path.abspath(options.man)
    base = os.path.join(options.root or "/", options.prefix.lstrip("/"))
    for relative, (kind, program, *shell) in layout(options.prefix, options.programs):
        target = os.path.join(base, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if kind == "program":
            shutil.copyfile(os.path.join(binaries, program), target)
            os.chmod(target, 0o755)
            continue
        if kind == "manual":
            source = os.path.join(manuals, f"{program}.1")
            if not os.path.exists(source):
                sys.exit(f"install_tree: no manual page {source} (make man writes it)")
            text = open(source, "rb").read()
        else:
            run = subprocess.run([os.path.join(binaries, program), "--generate-completion-script", shell[0]],
                                 capture_output=True, check=True)
            text = run.stdout
        if kind == "manual" and options.gzip_man:
            target += ".gz"
            with open(target, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as packed:
                packed.write(text)
        else:
            with open(target, "wb") as out:
                out.write(text)
        os.chmod(target, 0o644)
    share = os.path.join(base, "share/destinations")
    os.makedirs(share, exist_ok=True)
    for name in ASSETS:
        source, target = os.path.join(ROOT, "Assets", name), os.path.join(share, name)
        if os.path.isdir(source):
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        else:
            shutil.copyfile(source, target)
    print(f"install_tree: installed {', '.join(options.programs)}, their manual pages and completions, and the bundled posts under {base}")


def uninstall(options):
    base = os.path.join(options.root or "/", options.prefix.lstrip("/"))
    removed = 0
    for relative, _ in layout(options.prefix):
        for path in (os.path.join(base, relative), os.path.join(base, relative) + ".gz"):
            if os.path.lexists(path):
                os.remove(path)
                removed += 1
    share = os.path.join(base, "share/destinations")
    if os.path.isdir(share):
        shutil.rmtree(share)
        removed += 1
    print(f"install_tree: removed {removed} files and folders from {base}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["install", "uninstall"])
    parser.add_argument("--prefix", default="/usr/local")
    parser.add_argument("--root", default="", help="a staging folder the prefix is laid out under")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"), help="where the built programs are")
    parser.add_argument("--man", default=os.path.join(ROOT, ".build/man"), help="where make man wrote the manual pages")
    parser.add_argument("--gzip-man", action="store_true")
    parser.add_argument("--programs", nargs="+", default=PROGRAMS, choices=PROGRAMS, help="what to install (default: both)")
    options = parser.parse_args()
    if not options.prefix.startswith("/"):
        sys.exit("install_tree: --prefix must be an absolute path")
    install(options) if options.action == "install" else uninstall(options)


if __name__ == "__main__":
    main()
