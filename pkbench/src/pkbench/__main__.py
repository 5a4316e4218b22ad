from pkbench.cli import main

main()
