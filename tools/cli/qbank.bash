# bash completion for qbank                                   -*- shell-script -*-
#
# Installed as share/bash-completion/completions/qbank (loaded on demand by
# the bash-completion package), or load it by hand: source qbank.bash
#
# Everything is asked from the qbank being completed, so the completion
# follows the binary it runs: commands from `qbank --help`, a command's
# options and the values of --format and --to from `qbank help COMMAND`,
# rule ids from `qbank rules`.

# Prints the commands, one a line.
_qbank_commands()
{
    "$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# Prints the options of command $2, one a line.
_qbank_options()
{
    "$1" help "$2" 2>/dev/null | grep -oE '(^|[[ |,])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[[ |,]//' | sort -u
}

# Prints the values of option $3 of command $2 as the synopsis lists them:
# "--format gcc|json|sarif" gives gcc, json and sarif.
_qbank_values()
{
    "$1" help "$2" 2>/dev/null | grep -oE -- "$3 [a-z0-9]+(\|[a-z0-9]+)+" | head -n 1 |
        sed 's/^[^ ]* //' | tr '|' '\n'
}

_qbank_rules()
{
    "$1" rules 2>/dev/null | awk '{ print $1 }'
}

_qbank()
{
    local cur prev qbank cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    qbank=${COMP_WORDS[0]}

    # the command is the first word after qbank that is not an option
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_qbank_commands "$qbank")" -- "$cur"))
        fi
        return 0
    fi

    case $prev in
        --format|--to)
            COMPREPLY=($(compgen -W "$(_qbank_values "$qbank" "$cmd" "$prev")" -- "$cur"))
            return 0
            ;;
        --disable|--enable)
            # a comma-separated list: complete its last item
            local head=
            [[ $cur == *,* ]] && head=${cur%,*},
            COMPREPLY=($(compgen -P "$head" -W "$(_qbank_rules "$qbank")" -- "${cur##*,}"))
            compopt -o nospace 2>/dev/null
            return 0
            ;;
        --config|-o|--output)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0
            ;;
        --max-warnings|--min-explanation-coverage|--min-rationale-coverage|--forms|--seed|--title|--schema-location)
            return 0
            ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_qbank_options "$qbank" "$cmd")" -- "$cur"))
        return 0
    fi

    case $cmd in
        help)
            COMPREPLY=($(compgen -W "$(_qbank_commands "$qbank")" -- "$cur"))
            ;;
        explain)
            COMPREPLY=($(compgen -W "$(_qbank_rules "$qbank")" -- "$cur"))
            ;;
        rules)
            ;;
        new)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            ;;
        *)
            # PATH...: bank files and folders
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.xml' -- "$cur"))
            ;;
    esac
    return 0
}

complete -F _qbank qbank
