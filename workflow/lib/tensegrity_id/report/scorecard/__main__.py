from .summary import main

main()
