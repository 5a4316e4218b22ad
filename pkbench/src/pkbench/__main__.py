from pkbench.cli.main import main

main()
