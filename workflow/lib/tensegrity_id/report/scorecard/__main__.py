from .overview import main

main()
