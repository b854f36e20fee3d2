#!/usr/bin/env bash
# Add refman to the desktop's application menu for the current user, or remove it again.
#
# Installs below ${XDG_DATA_HOME:-~/.local/share}:
#   applications/io.github.refman.Refman.desktop        the menu entry
#   metainfo/io.github.refman.Refman.metainfo.xml       AppStream data for software centres
#   icons/hicolor/<N>x<N>/apps/io.github.refman.Refman.png, icons/hicolor/scalable/apps/...svg
#
# Works from the repository (files from resources/) and from the one-folder bundle, where
# this script sits beside the `refman` executable (files from share/). From the bundle the
# menu entry starts that executable by its full path; from the repository it starts the
# `refman` on PATH (pipx, pip --user or an activated venv), unless --exec says otherwise.
#
# Usage:
#   install-desktop-integration.sh [--exec COMMAND]   install (again: it overwrites)
#   install-desktop-integration.sh --uninstall        remove what an install put there
set -euo pipefail

APP_ID="io.github.refman.Refman"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

MODE=install
EXEC=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --uninstall) MODE=uninstall ;;
        --exec)
            [[ $# -ge 2 ]] || { echo "--exec needs a command" >&2; exit 2; }
            EXEC="$2"
            shift
            ;;
        --exec=*) EXEC="${1#--exec=}" ;;
        -h | --help) usage; exit 0 ;;
        *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
APPS="$DATA_HOME/applications"
METAINFO="$DATA_HOME/metainfo"
ICONS="$DATA_HOME/icons/hicolor"

refresh_caches() {
    # Best effort: menus and icon themes also notice the files without these.
    if command -v update-desktop-database > /dev/null && [[ -d "$APPS" ]]; then
        update-desktop-database -q "$APPS" 2> /dev/null || true
    fi
    if command -v gtk-update-icon-cache > /dev/null && [[ -f "$ICONS/icon-theme.cache" ]]; then
        gtk-update-icon-cache -q -t -f "$ICONS" 2> /dev/null || true
    fi
}

# --- uninstall -------------------------------------------------------------------------------
if [[ "$MODE" == uninstall ]]; then
    removed=0
    shopt -s nullglob
    for file in "$APPS/$APP_ID.desktop" "$METAINFO/$APP_ID.metainfo.xml" \
        "$ICONS"/*/apps/"$APP_ID".png "$ICONS"/*/apps/"$APP_ID".svg; do
        if [[ -e "$file" || -L "$file" ]]; then
            rm -f "$file"
            removed=$((removed + 1))
            # Remove the folders that are now empty, up to (not including) the data home.
            dir="$(dirname "$file")"
            while [[ "$dir" != "$DATA_HOME" && "$dir" == "$DATA_HOME"/* ]] \
                && rmdir "$dir" 2> /dev/null; do
                dir="$(dirname "$dir")"
            done
        fi
    done
    shopt -u nullglob
    refresh_caches
    # A cache left alone in an otherwise empty folder indexed only our files: remove it too.
    for cache in "$APPS/mimeinfo.cache" "$ICONS/icon-theme.cache"; do
        folder="$(dirname "$cache")"
        if [[ -f "$cache" ]] \
            && [[ -z "$(find "$folder" -mindepth 1 ! -path "$cache" -print -quit)" ]]; then
            rm -f "$cache"
            rmdir "$folder" 2> /dev/null || true
        fi
    done
    rmdir "$DATA_HOME/icons" 2> /dev/null || true
    echo "refman: removed $removed desktop integration file(s) from $DATA_HOME"
    exit 0
fi

# --- install ---------------------------------------------------------------------------------
if [[ -f "$HERE/share/applications/$APP_ID.desktop" ]]; then
    # In the bundle: share/ beside this script and the refman executable.
    DESKTOP_SRC="$HERE/share/applications/$APP_ID.desktop"
    METAINFO_SRC="$HERE/share/metainfo/$APP_ID.metainfo.xml"
    ICONS_SRC="$HERE/share/icons/hicolor"
    if [[ -z "$EXEC" && -x "$HERE/refman" ]]; then
        EXEC="$HERE/refman"
    fi
elif [[ -f "$HERE/../resources/$APP_ID.desktop" ]]; then
    # In the repository: packaging/ beside resources/.
    DESKTOP_SRC="$HERE/../resources/$APP_ID.desktop"
    METAINFO_SRC="$HERE/../resources/$APP_ID.metainfo.xml"
    ICONS_SRC="$HERE/../resources/icons/hicolor"
else
    echo "refman: cannot find $APP_ID.desktop beside this script" >&2
    exit 1
fi
[[ -f "$METAINFO_SRC" && -d "$ICONS_SRC" ]] || { echo "refman: resources incomplete" >&2; exit 1; }

EXEC="${EXEC:-refman}"
if [[ "$EXEC" == *[\"\`\$\\]* ]]; then
    echo "refman: --exec may not contain \" \` \$ or \\: $EXEC" >&2
    exit 2
fi
if [[ "$EXEC" != refman ]] && [[ "$EXEC" == */* ]] && [[ ! -x "$EXEC" ]]; then
    echo "refman: warning: $EXEC is not an executable file (yet)" >&2
fi
if [[ "$EXEC" == refman ]] && ! command -v refman > /dev/null; then
    echo "refman: warning: no 'refman' on PATH; the menu entry starts only once there is one" \
        "(or run again with --exec /path/to/refman)" >&2
fi
# The desktop entry spec: an argument with spaces or other reserved characters is quoted.
EXEC_ARG="$EXEC"
if [[ "$EXEC" == *[[:space:]\'\>\<\~\|\&\;\*\?\#\(\)]* ]]; then
    EXEC_ARG="\"$EXEC\""
fi

mkdir -p "$APPS" "$METAINFO"
tmp="$(mktemp "$APPS/.$APP_ID.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
while IFS= read -r line || [[ -n "$line" ]]; do
    case "$line" in
        Exec=refman\ *) printf 'Exec=%s %s\n' "$EXEC_ARG" "${line#Exec=refman }" ;;
        Exec=refman) printf 'Exec=%s\n' "$EXEC_ARG" ;;
        TryExec=refman) printf 'TryExec=%s\n' "$EXEC" ;;
        *) printf '%s\n' "$line" ;;
    esac
done < "$DESKTOP_SRC" > "$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$APPS/$APP_ID.desktop"
trap - EXIT
install -m 644 "$METAINFO_SRC" "$METAINFO/$APP_ID.metainfo.xml"

count=0
for icon in "$ICONS_SRC"/*/apps/"$APP_ID".png "$ICONS_SRC"/*/apps/"$APP_ID".svg; do
    [[ -f "$icon" ]] || continue
    size="$(basename "$(dirname "$(dirname "$icon")")")"
    install -D -m 644 "$icon" "$ICONS/$size/apps/$(basename "$icon")"
    count=$((count + 1))
done
[[ $count -gt 0 ]] || { echo "refman: no icons found in $ICONS_SRC" >&2; exit 1; }

refresh_caches
echo "refman: installed the menu entry, AppStream data and $count icons into $DATA_HOME"
echo "refman: the menu entry runs: $EXEC"
