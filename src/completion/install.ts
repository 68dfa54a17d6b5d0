// How each shell's script is installed for one user: one line that makes the directory first, for a fresh account
// has none of them. zsh reads ~/.zfunc only once ~/.zshrc puts it on fpath (ZSH_FPATH).
export const INSTALL_LINES = {
  bash: 'mkdir -p ~/.local/share/bash-completion/completions && trident completion bash > ~/.local/share/bash-completion/completions/trident',
  zsh: 'mkdir -p ~/.zfunc && trident completion zsh > ~/.zfunc/_trident',
  fish: 'mkdir -p ~/.config/fish/completions && trident completion fish > ~/.config/fish/completions/trident.fish',
} as const;

export const ZSH_FPATH = 'in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)';
