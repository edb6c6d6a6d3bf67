#!/usr/bin/env python3
"""A Debian package of destinations (`make deb`).

    scripts/make_deb.py --bin .build/release --man .build/man --out .build

The programs are release builds with the Swift runtime linked in (`--static-swift-stdlib`),
so the package needs Debian's libraries only: dpkg-shlibdeps reads the programs and names
the packages that hold the libraries they load (libncursesw6, libturbojpeg0, libpng16-16,
libwebp7, libgif7, libchafa0, libsqlite3-0 …) with their versions. Debug sections are
stripped; the symbol table stays, so a crash's backtrace still names functions. Laid out by
install_tree.py under /usr (manual pages gzipped), with the copyright file and the
changelog Debian's policy asks for. Writes OUT/destinations_VERSION_ARCH.deb and a link
OUT/destinations.deb to it.
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The app only: the feed server (Hummingbird and its graph, another minute and a half of
# release build in every CI run) is for trying the app against a shaped network, and
# `make install` installs it.
PROGRAMS = ["destinations"]

DESCRIPTION = """\
Description: hitch-free scrolling grid of photo posts for the terminal
 A keyboard-driven grid of photo thumbnails that scrolls the way UIKit's
 collection views do: a fixed-deadline frame loop at 60 or 120 Hz, prefetching
 in idle frame time, images prepared off the main thread, and a report of every
 frame that missed its deadline. Browses the bundled posts, a folder of your
 photos, or a Mastodon-compatible timeline (Mastodon, Pleroma, GoToSocial,
 Pixelfed), with content warnings, galleries, alt text and a login. Thumbnails
 are drawn as kitty images, sixel, iTerm2 images or text symbols.
"""


def run(*command, **keywords):
    return subprocess.run(list(command), check=True, capture_output=True, text=True, **keywords).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--man", required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    version = run(os.path.join(options.bin, "destinations"), "--version").strip()
    architecture = run("dpkg", "--print-architecture").strip()
    with tempfile.TemporaryDirectory(prefix="deb-") as work:
        stage = os.path.join(work, "destinations")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/install_tree.py"), "install", "--prefix", "/usr", "--root", stage,
                        "--bin", options.bin, "--man", options.man, "--gzip-man", "--programs", *PROGRAMS], check=True)
        programs = [os.path.join(stage, "usr/bin", program) for program in PROGRAMS]
        for program in programs:
            run("strip", "--strip-debug", program)
        doc = os.path.join(stage, "usr/share/doc/destinations")
        os.makedirs(doc, exist_ok=True)
        with open(os.path.join(doc, "copyright"), "w") as out:
            out.write("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
                      "Upstream-Name: destinations\n\n"
                      "Files: *\nCopyright: the destinations developers\nLicense: Apache-2.0\n"
                      " On Debian systems the full text is in /usr/share/common-licenses/Apache-2.0.\n\n"
                      "Files: usr/share/destinations/photos/*\nCopyright: see usr/share/destinations/CREDITS.md\n"
                      "License: GPL-2+ or LGPL-3+ or CC-BY-SA-4.0, per photo (CREDITS.md)\n")
        with open(os.path.join(ROOT, "CHANGELOG.md"), "rb") as source, \
                open(os.path.join(doc, "changelog.gz"), "wb") as out, \
                gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as packed:
            packed.write(source.read())
        # dpkg-shlibdeps reads debian/control from where it runs.
        os.makedirs(os.path.join(work, "debian"))
        with open(os.path.join(work, "debian/control"), "w") as control:
            control.write("Source: destinations\n\nPackage: destinations\nArchitecture: any\n")
        found = run("dpkg-shlibdeps", "-O", *[os.path.relpath(p, work) for p in programs], cwd=work)
        depends = next((line.split("=", 1)[1] for line in found.splitlines() if line.startswith("shlibs:Depends=")), "")
        if not depends:
            print(f"make_deb: FAIL: dpkg-shlibdeps named no libraries: {found}")
            sys.exit(1)
        size = sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(stage) for name in names) // 1024
        # Modes as Debian installs them, whatever the checkout's umask: folders 0755, files
        # 0644, programs 0755.
        for folder, names, files in os.walk(stage):
            os.chmod(folder, 0o755)
            for name in files:
                path = os.path.join(folder, name)
                os.chmod(path, 0o755 if os.path.dirname(path) == os.path.join(stage, "usr/bin") else 0o644)
        os.makedirs(os.path.join(stage, "DEBIAN"))
        with open(os.path.join(stage, "DEBIAN/control"), "w") as control:
            control.write(f"Package: destinations\nVersion: {version}\nArchitecture: {architecture}\n"
                          f"Maintainer: destinations developers <destinations@localhost>\nInstalled-Size: {size}\n"
                          f"Depends: {depends}\nSection: utils\nPriority: optional\n" + DESCRIPTION)
        os.makedirs(options.out, exist_ok=True)
        name = f"destinations_{version}_{architecture}.deb"
        target = os.path.join(options.out, name)
        run("dpkg-deb", "--root-owner-group", "-Zgzip", "-z6", "--build", stage, target)  # gzip: faster to make than xz, a little larger
    link = os.path.join(options.out, "destinations.deb")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(name, link)
    print(f"make_deb: {target} ({os.path.getsize(target) >> 20} MiB), Depends: {depends}")


if __name__ == "__main__":
    main()
