"""Reads by primary key whose SQL is compiled once per database connection.

Django compiles a query anew each time it runs. For the reads every request makes (the match
with its teams and league, the session's user with what the navigation shows), building the
SQL cost more than the database answering it: ``by_key`` compiles each query once per
connection and turns its row into the model as the ORM would (converters, related rows,
annotations)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

from bbweb.converters import ID_MAX

_ANY_KEY = -7_654_321  # stands for the key a compiled query is later given


@dataclass(frozen=True)
class _Compiled[Row: models.Model]:
    sql: str
    params: list[Any]  # the subqueries' own, and the key's place among them
    key_at: int
    model: type[Row]
    compiler: SQLCompiler
    converters: dict[int, Any]
    init_list: list[str]
    columns: slice
    related: list[Any]
    annotations: dict[str, int]

    @classmethod
    def of(cls, queryset: "models.QuerySet[Row]") -> "_Compiled[Row]":
        compiler = queryset.filter(pk=_ANY_KEY).query.get_compiler(queryset.db)
        sql, params = compiler.as_sql()
        info = compiler.klass_info
        assert info is not None
        select = compiler.select
        fields = info["select_fields"]
        columns = slice(fields[0], fields[-1] + 1)
        return cls(
            sql,
            list(params),
            params.index(_ANY_KEY),
            queryset.model,
            compiler,
            compiler.get_converters([column[0] for column in select]),
            [column[0].target.attname for column in select[columns]],
            columns,
            get_related_populators(info, select, queryset.db, queryset._fetch_mode),  # type: ignore[attr-defined]
            dict(compiler.annotation_col_map),
        )

    def get(self, pk: Any) -> Row | None:
        params = self.params.copy()
        params[self.key_at] = pk
        with self.compiler.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        if self.converters:
            [row] = self.compiler.apply_converters([row], self.converters)
        found = self.model.from_db(self.compiler.using, self.init_list, row[self.columns])
        for populator in self.related:
            populator.populate(row, found)
        for name, position in self.annotations.items():
            setattr(found, name, row[position])
        return found


def by_key[Row: models.Model](
    pk: Any, query: Callable[..., "models.QuerySet[Row]"], *args: Any
) -> Row | None:
    """The row ``query(*args)`` finds by this key; ``query`` is called, and its SQL built,
    once per connection (a module-level function, whose identity names the query)."""
    if isinstance(pk, int) and not -ID_MAX - 1 <= pk <= ID_MAX:
        return None  # no row has it, and SQLite's driver cannot even send it (OverflowError)
    db = connections[DEFAULT_DB_ALIAS]
    # Kept on the connection (one per thread), which the compiled query refers to.
    compiled: dict[Any, _Compiled[Any]] = db.__dict__.setdefault("bbweb_compiled_reads", {})
    key = (query, args)
    if key not in compiled:
        compiled[key] = _Compiled.of(query(*args))
    found: Row | None = compiled[key].get(pk)
    return found
