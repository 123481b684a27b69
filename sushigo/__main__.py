from sushigo.cli import main

raise SystemExit(main())
