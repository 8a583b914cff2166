# fails to import
import does_not_exist  # noqa
