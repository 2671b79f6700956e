#!/usr/bin/env bash
# Makes dist/skiff_<version>_<arch>.deb (issue 27) from release builds of skiff and skiff-server: the two programs in
# /usr/bin, their man pages and bash, zsh and fish completions (each written by the program from its own options
# table), a systemd unit for skiff-server (not enabled), the conffile /etc/skiff/server.toml, the maintainer scripts
# in packaging/deb/, a debian/copyright file with every dependency's licence, and a changelog.
#
#   scripts/package-deb.sh                     builds both programs (release, .build-release) first
#   scripts/package-deb.sh --bin-dir DIR       takes them from DIR, built already (CI builds release once)
#   --out DIR                                  where the .deb goes (default dist)
#   --allow-toolchain-libs                     accept programs that load the Swift toolchain's own libraries (debug
#                                              builds, for trying the script out; such a package runs only here)
#   --gzip                                     compress with gzip -1 instead of xz (quicker, for debug builds)
set -euo pipefail
cd "$(dirname "$0")/.."

bin_dir=""
out=dist
allow_toolchain_libs=0
compression=(-Zxz)
while [ $# -gt 0 ]; do
    case "$1" in
        --bin-dir) bin_dir="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --allow-toolchain-libs) allow_toolchain_libs=1; shift ;;
        --gzip) compression=(-Zgzip -z1); shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-deb.sh: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done

if [ -z "$bin_dir" ]; then
    for product in skiff skiff-server; do
        nice swift build -c release --disable-local-rpath --scratch-path .build-release --product "$product"
    done
    bin_dir=.build-release/release
fi
for program in skiff skiff-server; do
    [ -x "$bin_dir/$program" ] || { echo "package-deb.sh: no $bin_dir/$program" >&2; exit 1; }
done

version="$("$bin_dir/skiff" --version | awk '{print $2}')"
commit="$("$bin_dir/skiff" --version | sed -n 's/.*(commit \([0-9a-f]*\)).*/\1/p')"
server_version="$("$bin_dir/skiff-server" --version | awk '{print $2}')"
if [ "$version" != "$server_version" ]; then
    echo "package-deb.sh: skiff is $version but skiff-server is $server_version: build them from one checkout" >&2
    exit 1
fi
arch="$(dpkg --print-architecture)"
package="skiff_${version}_${arch}"
work="$(mktemp -d -t skiff-deb.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/$package"

# ---- the programs ------------------------------------------------------------------------------------------
for program in skiff skiff-server; do
    install -D -m 0755 "$bin_dir/$program" "$root/usr/bin/$program"
    # Stripped, as Debian policy 10.1 asks: a crash's backtrace shows addresses, to be read against the build's own
    # unstripped program (.build-release/release), which CI keeps beside the package.
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$program"
done

# Every shared library they load comes from a Debian package: those are the package's Depends.
toolchain_libs="$(ldd "$root/usr/bin/skiff" "$root/usr/bin/skiff-server" | awk '/=> \// {print $3}' | sort -u |
    while read -r lib; do dpkg -S "$(readlink -f "$lib")" >/dev/null 2>&1 || dpkg -S "$lib" >/dev/null 2>&1 || echo "$lib"; done)"
if [ -n "$toolchain_libs" ] && [ "$allow_toolchain_libs" != 1 ]; then
    echo "package-deb.sh: these libraries come from no Debian package (a debug build? release links the Swift runtime in):" >&2
    echo "$toolchain_libs" >&2
    exit 1
fi
mkdir -p "$work/shlibs/debian"
printf 'Source: skiff\n\nPackage: skiff\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends="$(cd "$work/shlibs" && dpkg-shlibdeps -O --ignore-missing-info -e"$root/usr/bin/skiff" -e"$root/usr/bin/skiff-server" 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p')"

# ---- man pages and completions, from the programs' own tables ---------------------------------------------
mkdir -p "$root/usr/share/man/man1"
"$root/usr/bin/skiff" --generate-man | gzip -9n > "$root/usr/share/man/man1/skiff.1.gz"
"$root/usr/bin/skiff-server" --generate-man | gzip -9n > "$root/usr/share/man/man1/skiff-server.1.gz"
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
"$root/usr/bin/skiff" --generate-completion bash > "$root/usr/share/bash-completion/completions/skiff"
"$root/usr/bin/skiff" --generate-completion zsh > "$root/usr/share/zsh/vendor-completions/_skiff"
"$root/usr/bin/skiff" --generate-completion fish > "$root/usr/share/fish/vendor_completions.d/skiff.fish"
"$root/usr/bin/skiff-server" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/skiff-server"
"$root/usr/bin/skiff-server" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_skiff-server"
"$root/usr/bin/skiff-server" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/skiff-server.fish"
# bash completions are sourced, not run: no #! line (the parser writes one).
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/skiff-server"
chmod 0644 "$root"/usr/share/*/completions/* "$root"/usr/share/zsh/vendor-completions/* "$root"/usr/share/fish/vendor_completions.d/*

# ---- the service -------------------------------------------------------------------------------------------
install -D -m 0644 packaging/deb/skiff-server.service "$root/lib/systemd/system/skiff-server.service"
install -D -m 0644 packaging/deb/server.toml "$root/etc/skiff/server.toml"

# ---- lintian: the one error that is not a mistake --------------------------------------------------------
# zlib is compiled into both programs from swift-nio-extras' vendored copy (CNIOExtrasZlib, its symbols prefixed;
# AsyncHTTPClient decompresses with it: the app's HTTP client, and the server's calls to the card network): SwiftPM
# builds it from that package's source with no switch to Debian's libz. debian/copyright lists it.
install -D -m 0644 /dev/stdin "$root/usr/share/lintian/overrides/skiff" <<'OVERRIDES'
# zlib vendored by swift-nio-extras (CNIOExtrasZlib, symbols prefixed cnioextras_z_), built from its source by SwiftPM.
skiff: embedded-library zlib [usr/bin/skiff]
skiff: embedded-library zlib [usr/bin/skiff-server]
OVERRIDES

# ---- documentation: copyright (every dependency's licence) and changelog ----------------------------------
doc="$root/usr/share/doc/skiff"
install -d "$doc"
# The packages of the build the programs came from (DIR/.. of --bin-dir), else of the debug build.
scratch="$(dirname "$bin_dir")"
[ -f "$scratch/workspace-state.json" ] || scratch=.build
python3 scripts/deb-copyright.py --checkouts "$scratch/checkouts" --state "$scratch/workspace-state.json" > "$doc/copyright"
{
    echo "skiff ($version) unstable; urgency=medium"
    echo
    echo "  * Release $version, built from commit ${commit:-unknown}."
    echo
    echo " -- Skiff maintainers <maintainers@skiff.invalid>  $(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"

# ---- control ----------------------------------------------------------------------------------------------
install -d "$root/DEBIAN"
install -m 0755 packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm "$root/DEBIAN/"
echo "/etc/skiff/server.toml" > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/control" <<CONTROL
Package: skiff
Version: $version
Architecture: $arch
Maintainer: Skiff maintainers <maintainers@skiff.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: ${depends:+$depends, }passwd
Section: utils
Priority: optional
Description: keyboard-driven terminal wallet and its backend
 Skiff is a terminal wallet over ncursesw, with its own backend. The package
 installs skiff (the wallet; without --server it runs its own backend on
 127.0.0.1), skiff-server (the backend, on SQLite or PostgreSQL), their man
 pages and shell completions, and a systemd unit for skiff-server, which is
 not enabled on install.
CONTROL

mkdir -p "$out"
dpkg-deb --root-owner-group "${compression[@]}" --build "$root" "$out/$package.deb" >/dev/null
echo "$out/$package.deb"
